// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The OP Stack GasPriceOracle predeploy (0x420000000000000000000000000000000000000F) as the service reads
/// it after Fjord: the L1 data-fee parameters and the Fjord upper bound of a transaction's L1 fee. On Base
/// the parameters come from the L1Block predeploy, set by each block's L1-attributes deposit; here they sit
/// in this contract's own storage, set by its owner. The code is placed without a constructor, so the
/// owner is set once by `initialize`.
contract GasPriceOracle {
    /// Decimals of the scalars.
    uint256 public constant DECIMALS = 6;
    /// Fjord's linear regression from a FastLZ size to an estimated Brotli size, scaled by 1e6.
    int256 private constant COST_INTERCEPT = -42_585_600;
    uint256 private constant COST_FASTLZ_COEF = 836_500;
    /// Fjord's floor of the estimated size, in bytes.
    uint256 private constant MIN_TRANSACTION_SIZE = 100;

    address public owner;
    uint256 public l1BaseFee;
    uint256 public blobBaseFee;
    uint32 public baseFeeScalar;
    uint32 public blobBaseFeeScalar;

    function initialize(address owner_) external {
        require(owner == address(0), "already initialized");
        require(owner_ != address(0), "owner is zero");
        owner = owner_;
    }

    /// What the L1-attributes deposit sets on Base: the L1 base and blob base fees and the chain's two scalars.
    function setL1FeeParameters(uint256 l1BaseFee_, uint256 blobBaseFee_, uint32 baseFeeScalar_, uint32 blobBaseFeeScalar_) external {
        require(msg.sender == owner, "not owner");
        l1BaseFee = l1BaseFee_;
        blobBaseFee = blobBaseFee_;
        baseFeeScalar = baseFeeScalar_;
        blobBaseFeeScalar = blobBaseFeeScalar_;
    }

    function isEcotone() external pure returns (bool) {
        return true;
    }

    function isFjord() external pure returns (bool) {
        return true;
    }

    function decimals() external pure returns (uint256) {
        return DECIMALS;
    }

    /// L2 base fee of the block the call runs in.
    function baseFee() external view returns (uint256) {
        return block.basefee;
    }

    /// Upper bound of the L1 fee of a transaction of `unsignedTxSize` bytes (unsigned, RLP-encoded): 68
    /// bytes of signature added, then FastLZ's worst case (size / 255 + 16), as Fjord specifies it.
    function getL1FeeUpperBound(uint256 unsignedTxSize) external view returns (uint256) {
        uint256 txSize = unsignedTxSize + 68;
        uint256 flzUpperBound = txSize + txSize / 255 + 16;
        int256 estimated = COST_INTERCEPT + int256(COST_FASTLZ_COEF * flzUpperBound);
        if (estimated < int256(MIN_TRANSACTION_SIZE * 1e6)) estimated = int256(MIN_TRANSACTION_SIZE * 1e6);
        uint256 feeScaled = uint256(baseFeeScalar) * 16 * l1BaseFee + uint256(blobBaseFeeScalar) * blobBaseFee;
        return (uint256(estimated) * feeScaled) / (10 ** (DECIMALS * 2));
    }
}
