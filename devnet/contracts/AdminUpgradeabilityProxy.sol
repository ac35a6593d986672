// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A zeppelinos-style admin proxy as Base's USDC has it: the admin manages the proxy and nobody else
/// reaches those functions; every other caller is delegated to the implementation. Both addresses
/// live in the legacy zeppelinos slots, set with anvil_setStorageAt where the code is placed.
contract AdminUpgradeabilityProxy {
    event Upgraded(address implementation);
    event AdminChanged(address previousAdmin, address newAdmin);

    // keccak256("org.zeppelinos.proxy.implementation")
    bytes32 private constant IMPLEMENTATION_SLOT = 0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3;
    // keccak256("org.zeppelinos.proxy.admin")
    bytes32 private constant ADMIN_SLOT = 0x10d6a54a4754c8869d6886b5f5d7fbfa5b4522237ea5c60d11bc4e7a1ff9390b;

    modifier ifAdmin() {
        if (msg.sender == _admin()) {
            _;
        } else {
            _fallback();
        }
    }

    function admin() external ifAdmin returns (address) {
        return _admin();
    }

    function implementation() external ifAdmin returns (address) {
        return _implementation();
    }

    function changeAdmin(address newAdmin) external ifAdmin {
        require(newAdmin != address(0), "Cannot change the admin of a proxy to the zero address");
        emit AdminChanged(_admin(), newAdmin);
        _store(ADMIN_SLOT, newAdmin);
    }

    function upgradeTo(address newImplementation) external ifAdmin {
        _upgradeTo(newImplementation);
    }

    function upgradeToAndCall(address newImplementation, bytes calldata data) external payable ifAdmin {
        _upgradeTo(newImplementation);
        (bool ok,) = newImplementation.delegatecall(data);
        require(ok, "upgrade call failed");
    }

    fallback() external payable {
        _fallback();
    }

    receive() external payable {
        _fallback();
    }

    function _upgradeTo(address newImplementation) private {
        require(newImplementation.code.length > 0, "Cannot set a proxy implementation to a non-contract address");
        _store(IMPLEMENTATION_SLOT, newImplementation);
        emit Upgraded(newImplementation);
    }

    function _fallback() private {
        require(msg.sender != _admin(), "Cannot call fallback function from the proxy admin");
        address target = _implementation();
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), target, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok
            case 0 { revert(0, returndatasize()) }
            default { return(0, returndatasize()) }
        }
    }

    function _admin() private view returns (address a) {
        bytes32 slot = ADMIN_SLOT;
        assembly {
            a := sload(slot)
        }
    }

    function _implementation() private view returns (address impl) {
        bytes32 slot = IMPLEMENTATION_SLOT;
        assembly {
            impl := sload(slot)
        }
    }

    function _store(bytes32 slot, address value) private {
        assembly {
            sstore(slot, value)
        }
    }
}
