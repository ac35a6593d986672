// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Proxies of every storage-slot convention the capability service resolves, with their logic contracts.

interface ICapProxiable {
    function proxiableUUID() external view returns (bytes32);
}

interface ICapBeacon {
    function implementation() external view returns (address);
}

/// Forwards the call to `implementation` in this contract's context and returns or reverts as it did.
abstract contract CapDelegating {
    function _delegate(address implementation) internal {
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), implementation, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }

    function _initialize(address implementation, bytes memory data) internal {
        if (data.length == 0) return;
        (bool ok, bytes memory reason) = implementation.delegatecall(data);
        if (!ok) {
            assembly {
                revert(add(reason, 0x20), mload(reason))
            }
        }
    }

    function _slotAddress(bytes32 slot) internal view returns (address value) {
        assembly {
            value := sload(slot)
        }
    }

    function _setSlotAddress(bytes32 slot, address value) internal {
        assembly {
            sstore(slot, value)
        }
    }
}

/// EIP-1967 slots: bytes32(uint256(keccak256("eip1967.proxy.<name>")) - 1).
abstract contract CapErc1967Slots {
    bytes32 internal constant IMPLEMENTATION_SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;
    bytes32 internal constant ADMIN_SLOT = 0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103;
    bytes32 internal constant BEACON_SLOT = 0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50;

    event Upgraded(address indexed implementation);
    event AdminChanged(address previousAdmin, address newAdmin);
    event BeaconUpgraded(address indexed beacon);
}

/// Logic behind the transparent proxy, the beacon proxies and the delegate caller: an owned counter.
contract CapCounterLogic {
    address public owner;
    uint256 public value;

    function initialize(address owner_) external {
        require(owner == address(0), "CapCounterLogic: initialized");
        owner = owner_;
    }

    function setValue(uint256 value_) external {
        require(msg.sender == owner, "CapCounterLogic: not owner");
        value = value_;
    }
}

/// Transparent proxy: the admin reaches only the upgrade functions, everyone else only the implementation.
contract CapTransparentProxy is CapDelegating, CapErc1967Slots {
    constructor(address implementation_, address admin_, bytes memory data) payable {
        _setSlotAddress(IMPLEMENTATION_SLOT, implementation_);
        emit Upgraded(implementation_);
        _setSlotAddress(ADMIN_SLOT, admin_);
        emit AdminChanged(address(0), admin_);
        _initialize(implementation_, data);
    }

    modifier ifAdmin() {
        if (msg.sender == _slotAddress(ADMIN_SLOT)) {
            _;
        } else {
            _delegate(_slotAddress(IMPLEMENTATION_SLOT));
        }
    }

    function upgradeTo(address newImplementation) external ifAdmin {
        require(newImplementation.code.length > 0, "CapTransparentProxy: no code");
        _setSlotAddress(IMPLEMENTATION_SLOT, newImplementation);
        emit Upgraded(newImplementation);
    }

    function changeAdmin(address newAdmin) external ifAdmin {
        emit AdminChanged(_slotAddress(ADMIN_SLOT), newAdmin);
        _setSlotAddress(ADMIN_SLOT, newAdmin);
    }

    function implementation() external ifAdmin returns (address) {
        return _slotAddress(IMPLEMENTATION_SLOT);
    }

    fallback() external payable {
        require(msg.sender != _slotAddress(ADMIN_SLOT), "CapTransparentProxy: admin cannot fall back");
        _delegate(_slotAddress(IMPLEMENTATION_SLOT));
    }

    receive() external payable {
        _delegate(_slotAddress(IMPLEMENTATION_SLOT));
    }
}

/// The transparent proxy's admin: a contract, so the owner EOA can still use the proxy as a user.
contract CapProxyAdmin {
    address public owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function upgrade(CapTransparentProxy proxy, address newImplementation) external {
        require(msg.sender == owner, "CapProxyAdmin: not owner");
        proxy.upgradeTo(newImplementation);
    }
}

/// ERC-1967 proxy with no logic of its own: upgrades live in the implementation (UUPS).
contract CapUUPSProxy is CapDelegating, CapErc1967Slots {
    constructor(address implementation, bytes memory data) payable {
        require(ICapProxiable(implementation).proxiableUUID() == IMPLEMENTATION_SLOT, "CapUUPSProxy: not UUPS");
        _setSlotAddress(IMPLEMENTATION_SLOT, implementation);
        emit Upgraded(implementation);
        _initialize(implementation, data);
    }

    fallback() external payable {
        _delegate(_slotAddress(IMPLEMENTATION_SLOT));
    }

    receive() external payable {
        _delegate(_slotAddress(IMPLEMENTATION_SLOT));
    }
}

contract CapUUPSImplementation is CapDelegating, CapErc1967Slots, ICapProxiable {
    /// Where this logic itself lives: its upgrade function must only run behind a proxy.
    address private immutable self = address(this);

    address public owner;
    uint256 public value;

    function initialize(address owner_) external {
        require(owner == address(0), "CapUUPSImplementation: initialized");
        owner = owner_;
    }

    function setValue(uint256 value_) external {
        require(msg.sender == owner, "CapUUPSImplementation: not owner");
        value = value_;
    }

    function proxiableUUID() external view override returns (bytes32) {
        require(address(this) == self, "CapUUPSImplementation: delegated");
        return IMPLEMENTATION_SLOT;
    }

    function upgradeToAndCall(address newImplementation, bytes calldata data) external payable {
        require(address(this) != self, "CapUUPSImplementation: not delegated");
        require(msg.sender == owner, "CapUUPSImplementation: not owner");
        require(ICapProxiable(newImplementation).proxiableUUID() == IMPLEMENTATION_SLOT, "CapUUPSImplementation: not UUPS");
        _setSlotAddress(IMPLEMENTATION_SLOT, newImplementation);
        emit Upgraded(newImplementation);
        _initialize(newImplementation, data);
    }
}

/// EIP-1822 (the pre-1967 UUPS draft): the logic address sits at keccak256("PROXIABLE").
abstract contract CapEip1822Slot {
    bytes32 internal constant PROXIABLE_SLOT = 0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7;
}

contract CapEip1822Proxy is CapDelegating, CapEip1822Slot {
    constructor(bytes memory constructData, address contractLogic) payable {
        require(ICapProxiable(contractLogic).proxiableUUID() == PROXIABLE_SLOT, "CapEip1822Proxy: not proxiable");
        _setSlotAddress(PROXIABLE_SLOT, contractLogic);
        _initialize(contractLogic, constructData);
    }

    fallback() external payable {
        _delegate(_slotAddress(PROXIABLE_SLOT));
    }

    receive() external payable {
        _delegate(_slotAddress(PROXIABLE_SLOT));
    }
}

contract CapEip1822Implementation is CapDelegating, CapEip1822Slot, ICapProxiable {
    event CodeUpdated(address newAddress);

    address public owner;
    uint256 public value;

    function initialize(address owner_) external {
        require(owner == address(0), "CapEip1822Implementation: initialized");
        owner = owner_;
    }

    function setValue(uint256 value_) external {
        require(msg.sender == owner, "CapEip1822Implementation: not owner");
        value = value_;
    }

    function proxiableUUID() external pure override returns (bytes32) {
        return PROXIABLE_SLOT;
    }

    function updateCodeAddress(address newAddress) external {
        require(msg.sender == owner, "CapEip1822Implementation: not owner");
        require(ICapProxiable(newAddress).proxiableUUID() == PROXIABLE_SLOT, "CapEip1822Implementation: not proxiable");
        _setSlotAddress(PROXIABLE_SLOT, newAddress);
        emit CodeUpdated(newAddress);
    }
}

contract CapBeacon is ICapBeacon {
    event Upgraded(address indexed implementation);

    address public owner;
    address public override implementation;

    constructor(address implementation_, address owner_) {
        owner = owner_;
        _setImplementation(implementation_);
    }

    function upgradeTo(address newImplementation) external {
        require(msg.sender == owner, "CapBeacon: not owner");
        _setImplementation(newImplementation);
    }

    function _setImplementation(address newImplementation) private {
        require(newImplementation.code.length > 0, "CapBeacon: no code");
        implementation = newImplementation;
        emit Upgraded(newImplementation);
    }
}

/// Beacon proxy with the beacon in the EIP-1967 beacon slot.
contract CapBeaconProxy is CapDelegating, CapErc1967Slots {
    constructor(address beacon, bytes memory data) payable {
        _setSlotAddress(BEACON_SLOT, beacon);
        emit BeaconUpgraded(beacon);
        _initialize(ICapBeacon(beacon).implementation(), data);
    }

    fallback() external payable {
        _delegate(ICapBeacon(_slotAddress(BEACON_SLOT)).implementation());
    }

    receive() external payable {
        _delegate(ICapBeacon(_slotAddress(BEACON_SLOT)).implementation());
    }
}

/// Beacon proxy whose beacon is compiled into its code: no storage slot names it.
contract CapImmutableBeaconProxy is CapDelegating {
    address private immutable beacon;

    constructor(address beacon_, bytes memory data) payable {
        beacon = beacon_;
        _initialize(ICapBeacon(beacon_).implementation(), data);
    }

    fallback() external payable {
        _delegate(ICapBeacon(beacon).implementation());
    }

    receive() external payable {
        _delegate(ICapBeacon(beacon).implementation());
    }
}

/// Safe-style proxy: the singleton sits in slot 0 and `masterCopy()` is answered without delegating.
contract CapSafeProxy {
    address internal singleton;

    constructor(address singleton_) {
        require(singleton_ != address(0), "CapSafeProxy: no singleton");
        singleton = singleton_;
    }

    fallback() external payable {
        assembly {
            let target := and(sload(0), 0xffffffffffffffffffffffffffffffffffffffff)
            // masterCopy()
            if eq(shr(224, calldataload(0)), 0xa619486e) {
                mstore(0, target)
                return(0, 0x20)
            }
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), target, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }
}

/// A Safe-like multisig singleton, reduced to single-owner execution (threshold 1).
contract CapSafeSingleton {
    event SafeSetup(address indexed initiator, address[] owners, uint256 threshold);
    event ExecutionSuccess(uint256 nonce);

    /// Slot 0 is the proxy's singleton address; the layout must keep it there.
    address internal singleton;
    address[] private owners;
    mapping(address => bool) private owned;
    uint256 private threshold;
    uint256 public nonce;

    /// The singleton itself can never be set up (as in Safe).
    constructor() {
        threshold = 1;
    }

    function setup(address[] calldata owners_, uint256 threshold_) external {
        require(threshold == 0, "CapSafeSingleton: already set up");
        require(threshold_ > 0 && threshold_ <= owners_.length, "CapSafeSingleton: bad threshold");
        for (uint256 i = 0; i < owners_.length; i++) {
            require(owners_[i] != address(0) && !owned[owners_[i]], "CapSafeSingleton: bad owner");
            owned[owners_[i]] = true;
        }
        owners = owners_;
        threshold = threshold_;
        emit SafeSetup(msg.sender, owners_, threshold_);
    }

    function getOwners() external view returns (address[] memory) {
        return owners;
    }

    function getThreshold() external view returns (uint256) {
        return threshold;
    }

    function isOwner(address account) external view returns (bool) {
        return owned[account];
    }

    /// operation 0 calls `to`, 1 delegatecalls it (Safe's Enum.Operation).
    function execTransaction(address to, uint256 value, bytes calldata data, uint8 operation)
        external
        payable
        returns (bool success)
    {
        require(owned[msg.sender] && threshold == 1, "CapSafeSingleton: not authorized");
        nonce++;
        if (operation == 1) {
            (success,) = to.delegatecall(data);
        } else {
            (success,) = to.call{value: value}(data);
        }
        require(success, "CapSafeSingleton: execution failed");
        emit ExecutionSuccess(nonce);
    }
}
