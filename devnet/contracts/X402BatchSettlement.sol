// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// What the escrow asks of a deposit collector: pull `amount` of `token` from `payer` into the escrow.
interface IX402DepositCollector {
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata collectorData)
        external;
}

/// A contract wallet's signature check (ERC-1271).
interface IX402SignatureValidator {
    function isValidSignature(bytes32 digest, bytes calldata signature) external view returns (bytes4);
}

/// An escrow for x402's `batch-settlement` scheme with the ABI, events, errors and EIP-712 encoding that
/// the npm package x402 evm 2.27.0 calls at 0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003 (x402BatchSettlement): channels
/// keyed by the typed-data hash of their configuration, cumulative payer vouchers claimed in batches by the
/// receiver side (directly or with a receiverAuthorizer's signature over the batch), claimed funds swept to
/// the receiver by `settle`, timed withdrawals and cooperative refunds for the payer. Written for the
/// devnet, not a copy of the audited contract. Its code is placed at the canonical address without a
/// constructor, so the EIP-712 domain is computed on every call from the chain id and address(this).
contract x402BatchSettlement {
    struct ChannelConfig {
        address payer;
        address payerAuthorizer;
        address receiver;
        address receiverAuthorizer;
        address token;
        uint40 withdrawDelay;
        bytes32 salt;
    }

    struct ChannelState {
        uint128 balance;
        uint128 totalClaimed;
    }

    struct WithdrawalState {
        uint128 amount;
        uint40 initiatedAt;
    }

    struct ReceiverState {
        uint128 totalClaimed;
        uint128 totalSettled;
    }

    struct Voucher {
        ChannelConfig channel;
        uint128 maxClaimableAmount;
    }

    struct VoucherClaim {
        Voucher voucher;
        bytes signature;
        uint128 totalClaimed;
    }

    uint40 public constant MIN_WITHDRAW_DELAY = 15 minutes;
    uint40 public constant MAX_WITHDRAW_DELAY = 30 days;

    bytes32 public constant CHANNEL_CONFIG_TYPEHASH = keccak256(
        "ChannelConfig(address payer,address payerAuthorizer,address receiver,address receiverAuthorizer,address token,uint40 withdrawDelay,bytes32 salt)"
    );
    bytes32 public constant VOUCHER_TYPEHASH = keccak256("Voucher(bytes32 channelId,uint128 maxClaimableAmount)");
    bytes32 public constant REFUND_TYPEHASH = keccak256("Refund(bytes32 channelId,uint256 nonce,uint128 amount)");
    bytes32 public constant CLAIM_ENTRY_TYPEHASH =
        keccak256("ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)");
    bytes32 public constant CLAIM_BATCH_TYPEHASH = keccak256(
        "ClaimBatch(ClaimEntry[] claims)ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)"
    );
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");

    mapping(bytes32 channelId => ChannelState) public channels;
    mapping(bytes32 channelId => uint256) public refundNonce;
    mapping(bytes32 channelId => WithdrawalState) public pendingWithdrawals;
    mapping(address receiver => mapping(address token => ReceiverState)) public receivers;

    /// Reentrancy lock in transient storage (EIP-1153): cleared at the end of every transaction.
    bool private transient entered;

    event ChannelCreated(bytes32 indexed channelId, ChannelConfig config);
    event ChannelClosed(bytes32 indexed channelId, ChannelConfig config);
    event Deposited(bytes32 indexed channelId, address indexed sender, uint128 amount, uint128 newBalance);
    event Claimed(bytes32 indexed channelId, address indexed sender, uint128 claimAmount, uint128 newTotalClaimed);
    event Settled(address indexed receiver, address indexed token, address indexed sender, uint128 amount);
    event Refunded(bytes32 indexed channelId, address indexed sender, uint128 amount);
    event WithdrawInitiated(bytes32 indexed channelId, uint128 amount, uint40 finalizeAfter);
    event WithdrawFinalized(bytes32 indexed channelId, address indexed sender, uint128 amount);

    error InvalidChannel();
    error ZeroDeposit();
    error DepositOverflow();
    error InvalidSignature();
    error NotReceiverAuthorizer();
    error NotAuthorizedToClaim();
    error NotAuthorizedToRefund();
    error ClaimExceedsCeiling();
    error ClaimExceedsBalance();
    error WithdrawalAlreadyPending();
    error WithdrawalNotPending();
    error NotAuthorizedToFinalizeWithdraw();
    error WithdrawDelayNotElapsed();
    error NothingToWithdraw();
    error WithdrawAmountExceedsAvailable();
    error WithdrawDelayOutOfRange();
    error EmptyBatch();
    error DepositCollectionFailed();
    error InvalidCollector();
    error InvalidRefundNonce();
    error ZeroRefund();
    error ReentrantCall();
    error TokenTransferFailed();

    modifier nonReentrant() {
        if (entered) revert ReentrantCall();
        entered = true;
        _;
        entered = false;
    }

    /// Pulls `amount` into the channel through `collector`; the escrow's token balance must grow by exactly `amount`.
    function deposit(ChannelConfig calldata config, uint128 amount, address collector, bytes calldata collectorData)
        external
        nonReentrant
    {
        if (
            config.payer == address(0) || config.receiver == address(0) || config.receiverAuthorizer == address(0)
                || config.token == address(0)
        ) revert InvalidChannel();
        if (config.withdrawDelay < MIN_WITHDRAW_DELAY || config.withdrawDelay > MAX_WITHDRAW_DELAY) {
            revert WithdrawDelayOutOfRange();
        }
        if (amount == 0) revert ZeroDeposit();
        if (collector == address(0)) revert InvalidCollector();

        bytes32 channelId = getChannelId(config);
        ChannelState storage channel = channels[channelId];
        if (amount > type(uint128).max - channel.balance) revert DepositOverflow();
        bool opening = channel.balance == 0 && channel.totalClaimed == 0;
        channel.balance += amount;

        uint256 before = _balanceOf(config.token);
        IX402DepositCollector(collector).collect(config.payer, config.token, amount, channelId, collectorData);
        if (_balanceOf(config.token) != before + amount) revert DepositCollectionFailed();

        if (opening) emit ChannelCreated(channelId, config);
        emit Deposited(channelId, msg.sender, amount, channel.balance);
    }

    /// Applies cumulative voucher claims; the sender must be each channel's receiver or receiverAuthorizer.
    function claim(VoucherClaim[] calldata voucherClaims) external nonReentrant {
        if (voucherClaims.length == 0) revert EmptyBatch();
        for (uint256 i = 0; i < voucherClaims.length; ++i) {
            if (!_isReceiverSide(msg.sender, voucherClaims[i].voucher.channel)) revert NotAuthorizedToClaim();
            _applyClaim(voucherClaims[i]);
        }
    }

    /// Applies a batch signed by the receiverAuthorizer that every row names; anyone may relay it.
    function claimWithSignature(VoucherClaim[] calldata voucherClaims, bytes calldata authorizerSignature)
        external
        nonReentrant
    {
        if (voucherClaims.length == 0) revert EmptyBatch();
        address authorizer = voucherClaims[0].voucher.channel.receiverAuthorizer;
        if (!_validSignature(authorizer, getClaimBatchDigest(voucherClaims), authorizerSignature)) {
            revert InvalidSignature();
        }
        for (uint256 i = 0; i < voucherClaims.length; ++i) {
            if (voucherClaims[i].voucher.channel.receiverAuthorizer != authorizer) revert NotReceiverAuthorizer();
            _applyClaim(voucherClaims[i]);
        }
    }

    /// Sends the receiver what was claimed for it in `token` and not yet sent; anyone may call it.
    function settle(address receiver, address token) external nonReentrant {
        ReceiverState storage state = receivers[receiver][token];
        uint128 amount = state.totalClaimed - state.totalSettled;
        if (amount == 0) return;
        state.totalSettled = state.totalClaimed;
        _transfer(token, receiver, amount);
        emit Settled(receiver, token, msg.sender, amount);
    }

    /// Starts the payer's timed withdrawal of unclaimed escrow (only claims already on chain count as claimed).
    function initiateWithdraw(ChannelConfig calldata config, uint128 amount) external nonReentrant {
        if (msg.sender != config.payer && msg.sender != config.payerAuthorizer) revert InvalidChannel();
        if (amount == 0) revert NothingToWithdraw();
        bytes32 channelId = getChannelId(config);
        WithdrawalState storage withdrawal = pendingWithdrawals[channelId];
        if (withdrawal.initiatedAt != 0) revert WithdrawalAlreadyPending();
        ChannelState storage channel = channels[channelId];
        if (amount > channel.balance - channel.totalClaimed) revert WithdrawAmountExceedsAvailable();
        withdrawal.amount = amount;
        withdrawal.initiatedAt = uint40(block.timestamp);
        emit WithdrawInitiated(channelId, amount, uint40(block.timestamp) + config.withdrawDelay);
    }

    /// Pays a pending withdrawal out after `withdrawDelay`, capped by what is unclaimed at that moment.
    function finalizeWithdraw(ChannelConfig calldata config) external nonReentrant {
        if (msg.sender != config.payer && msg.sender != config.payerAuthorizer) {
            revert NotAuthorizedToFinalizeWithdraw();
        }
        bytes32 channelId = getChannelId(config);
        WithdrawalState storage withdrawal = pendingWithdrawals[channelId];
        if (withdrawal.initiatedAt == 0) revert WithdrawalNotPending();
        if (block.timestamp < uint256(withdrawal.initiatedAt) + config.withdrawDelay) revert WithdrawDelayNotElapsed();

        ChannelState storage channel = channels[channelId];
        uint128 available = channel.balance - channel.totalClaimed;
        uint128 amount = withdrawal.amount < available ? withdrawal.amount : available;
        delete pendingWithdrawals[channelId];
        channel.balance -= amount;
        emit WithdrawFinalized(channelId, msg.sender, amount);
        if (channel.balance == 0 && channel.totalClaimed == 0) emit ChannelClosed(channelId, config);
        if (amount > 0) _transfer(config.token, config.payer, amount);
    }

    /// The receiver side gives unclaimed escrow back to the payer.
    function refund(ChannelConfig calldata config, uint128 amount) external nonReentrant {
        if (!_isReceiverSide(msg.sender, config)) revert NotAuthorizedToRefund();
        _refund(config, amount);
    }

    /// A refund the receiverAuthorizer signed at the channel's current refund nonce; anyone may relay it.
    function refundWithSignature(
        ChannelConfig calldata config,
        uint128 amount,
        uint256 nonce,
        bytes calldata receiverAuthorizerSignature
    ) external nonReentrant {
        bytes32 channelId = getChannelId(config);
        if (nonce != refundNonce[channelId]) revert InvalidRefundNonce();
        if (!_validSignature(config.receiverAuthorizer, getRefundDigest(channelId, nonce, amount), receiverAuthorizerSignature)) {
            revert InvalidSignature();
        }
        _refund(config, amount);
    }

    /// Calls this contract once per entry (delegatecall), reverting all if one reverts.
    function multicall(bytes[] calldata data) external returns (bytes[] memory results) {
        results = new bytes[](data.length);
        for (uint256 i = 0; i < data.length; ++i) {
            (bool ok, bytes memory result) = address(this).delegatecall(data[i]);
            if (!ok) {
                assembly {
                    revert(add(result, 32), mload(result))
                }
            }
            results[i] = result;
        }
    }

    /// The channel's id: the EIP-712 hash of its configuration under this contract's domain.
    function getChannelId(ChannelConfig calldata config) public view returns (bytes32) {
        return _typedDataHash(keccak256(abi.encode(CHANNEL_CONFIG_TYPEHASH, config)));
    }

    function getVoucherDigest(bytes32 channelId, uint128 maxClaimableAmount) public view returns (bytes32) {
        return _typedDataHash(keccak256(abi.encode(VOUCHER_TYPEHASH, channelId, maxClaimableAmount)));
    }

    function getRefundDigest(bytes32 channelId, uint256 nonce, uint128 amount) public view returns (bytes32) {
        return _typedDataHash(keccak256(abi.encode(REFUND_TYPEHASH, channelId, nonce, amount)));
    }

    /// The EIP-712 hash of `ClaimBatch(ClaimEntry[] claims)` over the rows (the array hashed as EIP-712 encodes arrays).
    function getClaimBatchDigest(VoucherClaim[] calldata voucherClaims) public view returns (bytes32) {
        bytes32[] memory entries = new bytes32[](voucherClaims.length);
        for (uint256 i = 0; i < voucherClaims.length; ++i) {
            entries[i] = keccak256(
                abi.encode(
                    CLAIM_ENTRY_TYPEHASH,
                    getChannelId(voucherClaims[i].voucher.channel),
                    voucherClaims[i].voucher.maxClaimableAmount,
                    voucherClaims[i].totalClaimed
                )
            );
        }
        return _typedDataHash(keccak256(abi.encode(CLAIM_BATCH_TYPEHASH, keccak256(abi.encodePacked(entries)))));
    }

    function eip712Domain()
        external
        view
        returns (
            bytes1 fields,
            string memory name,
            string memory version,
            uint256 chainId,
            address verifyingContract,
            bytes32 salt,
            uint256[] memory extensions
        )
    {
        return (hex"0f", "x402 Batch Settlement", "1", block.chainid, address(this), bytes32(0), new uint256[](0));
    }

    /// A claim below or at what is already claimed is a no-op, so a replayed voucher changes nothing.
    function _applyClaim(VoucherClaim calldata entry) private {
        ChannelConfig calldata config = entry.voucher.channel;
        bytes32 channelId = getChannelId(config);
        ChannelState storage channel = channels[channelId];
        if (entry.totalClaimed <= channel.totalClaimed) return;
        if (entry.totalClaimed > entry.voucher.maxClaimableAmount) revert ClaimExceedsCeiling();
        if (entry.totalClaimed > channel.balance) revert ClaimExceedsBalance();

        bytes32 digest = getVoucherDigest(channelId, entry.voucher.maxClaimableAmount);
        bool signed = config.payerAuthorizer != address(0)
            ? _recover(digest, entry.signature) == config.payerAuthorizer
            : _validSignature(config.payer, digest, entry.signature);
        if (!signed) revert InvalidSignature();

        uint128 delta = entry.totalClaimed - channel.totalClaimed;
        channel.totalClaimed = entry.totalClaimed;
        receivers[config.receiver][config.token].totalClaimed += delta;
        emit Claimed(channelId, msg.sender, delta, entry.totalClaimed);
    }

    /// Advances the refund nonce first (a signed refund is then spent even when nothing is left to give back).
    function _refund(ChannelConfig calldata config, uint128 amount) private {
        if (amount == 0) revert ZeroRefund();
        bytes32 channelId = getChannelId(config);
        unchecked {
            refundNonce[channelId]++;
        }
        ChannelState storage channel = channels[channelId];
        uint128 available = channel.balance - channel.totalClaimed;
        uint128 refunded = amount < available ? amount : available;
        if (refunded == 0) return;
        channel.balance -= refunded;

        WithdrawalState storage withdrawal = pendingWithdrawals[channelId];
        if (withdrawal.initiatedAt != 0) {
            if (refunded >= withdrawal.amount) delete pendingWithdrawals[channelId];
            else withdrawal.amount -= refunded;
        }
        emit Refunded(channelId, msg.sender, refunded);
        if (channel.balance == 0 && channel.totalClaimed == 0) emit ChannelClosed(channelId, config);
        _transfer(config.token, config.payer, refunded);
    }

    function _isReceiverSide(address sender, ChannelConfig calldata config) private pure returns (bool) {
        return sender == config.receiver || sender == config.receiverAuthorizer;
    }

    function _typedDataHash(bytes32 structHash) private view returns (bytes32) {
        bytes32 domain = keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256("x402 Batch Settlement"), keccak256("1"), block.chainid, address(this))
        );
        return keccak256(abi.encodePacked("\x19\x01", domain, structHash));
    }

    /// An ECDSA signer of `digest` (65-byte r,s,v; high-s refused), or address(0).
    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (uint256(s) > 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0) return address(0);
        return ecrecover(digest, v, r, s);
    }

    /// An EOA's ECDSA signature, or a contract wallet's ERC-1271 answer.
    function _validSignature(address signer, bytes32 digest, bytes calldata signature) private view returns (bool) {
        if (signer == address(0)) return false;
        if (signer.code.length == 0) return _recover(digest, signature) == signer;
        (bool ok, bytes memory answer) =
            signer.staticcall(abi.encodeCall(IX402SignatureValidator.isValidSignature, (digest, signature)));
        return ok && answer.length >= 32
            && abi.decode(answer, (bytes4)) == IX402SignatureValidator.isValidSignature.selector;
    }

    function _balanceOf(address token) private view returns (uint256) {
        (bool ok, bytes memory answer) = token.staticcall(abi.encodeWithSignature("balanceOf(address)", address(this)));
        if (!ok || answer.length < 32) revert DepositCollectionFailed();
        return abi.decode(answer, (uint256));
    }

    /// An ERC-20 transfer that accepts tokens returning nothing and refuses those returning false.
    function _transfer(address token, address to, uint256 amount) private {
        (bool ok, bytes memory answer) = token.call(abi.encodeWithSignature("transfer(address,uint256)", to, amount));
        if (!ok || (answer.length > 0 && !abi.decode(answer, (bool))) || (answer.length == 0 && token.code.length == 0)) {
            revert TokenTransferFailed();
        }
    }
}

/// The ERC-3009 deposit collector the npm package x402 evm 2.27.0 names at 0x4020806089470a89826cB9fB1f4059150b550004: pulls
/// the deposit with the payer's `receiveWithAuthorization` (which only the payee may submit, so the tokens
/// come here) and forwards it to the escrow. The authorization's nonce is keccak256(abi.encode(channelId, salt)),
/// binding it to the channel. Only the escrow may call `collect`.
contract ERC3009DepositCollector is IX402DepositCollector {
    address public immutable x402BatchSettlement;

    error OnlyX402BatchSettlement();
    error InvalidX402BatchSettlementAddress();
    error ForwardFailed();

    constructor(address escrow) {
        if (escrow == address(0)) revert InvalidX402BatchSettlementAddress();
        x402BatchSettlement = escrow;
    }

    /// `collectorData` is abi.encode(validAfter, validBefore, salt, signature).
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata collectorData)
        external
    {
        if (msg.sender != x402BatchSettlement) revert OnlyX402BatchSettlement();
        (uint256 validAfter, uint256 validBefore, uint256 salt, bytes memory signature) =
            abi.decode(collectorData, (uint256, uint256, uint256, bytes));
        (bool pulled, bytes memory reason) = token.call(
            abi.encodeWithSignature(
                "receiveWithAuthorization(address,address,uint256,uint256,uint256,bytes32,bytes)",
                payer,
                address(this),
                amount,
                validAfter,
                validBefore,
                keccak256(abi.encode(channelId, salt)),
                signature
            )
        );
        if (!pulled) {
            assembly {
                revert(add(reason, 32), mload(reason))
            }
        }
        (bool sent, bytes memory answer) =
            token.call(abi.encodeWithSignature("transfer(address,uint256)", x402BatchSettlement, amount));
        if (!sent || (answer.length > 0 && !abi.decode(answer, (bool)))) revert ForwardFailed();
    }
}
