// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// Contracts that differ by the opcodes they reach: SELFDESTRUCT, DELEGATECALL to a variable target,
// CREATE/CREATE2 without being a proxy, and none at all behind bytes that look like them.

contract CapSelfDestructor {
    address public immutable owner;

    constructor() payable {
        owner = msg.sender;
    }

    function destroy(address payable recipient) external {
        require(msg.sender == owner, "CapSelfDestructor: not owner");
        selfdestruct(recipient);
    }

    receive() external payable {}
}

/// DELEGATECALLs a target kept in storage (fallback) or supplied by the owner per call.
contract CapDelegateCaller {
    address public owner;
    address public target;

    constructor(address target_) {
        owner = msg.sender;
        target = target_;
    }

    function setTarget(address target_) external {
        require(msg.sender == owner, "CapDelegateCaller: not owner");
        target = target_;
    }

    function delegateTo(address to, bytes calldata data) external payable returns (bytes memory result) {
        require(msg.sender == owner, "CapDelegateCaller: not owner");
        bool ok;
        (ok, result) = to.delegatecall(data);
        require(ok, "CapDelegateCaller: delegatecall failed");
    }

    fallback() external payable {
        address to = target;
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), to, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }

    receive() external payable {}
}

/// A factory, not a proxy: it creates children with CREATE and CREATE2 and never delegates.
contract CapFactory {
    event ChildCreated(address indexed child, bool deterministic);

    function deploy(uint256 seed) external returns (address child) {
        child = address(new CapFactoryChild(msg.sender, seed));
        emit ChildCreated(child, false);
    }

    function deployDeterministic(bytes32 salt, uint256 seed) external returns (address child) {
        child = address(new CapFactoryChild{salt: salt}(msg.sender, seed));
        emit ChildCreated(child, true);
    }
}

contract CapFactoryChild {
    address public immutable creator;
    uint256 public immutable seed;

    constructor(address creator_, uint256 seed_) {
        creator = creator_;
        seed = seed_;
    }
}

/// Its only 0xf4/0xff/0xf2/0xf5 bytes are PUSH data (and possibly the CBOR metadata): a scan that does not
/// skip PUSH data "finds" DELEGATECALL, SELFDESTRUCT, CALLCODE and CREATE2 here.
contract CapPushDataTrap {
    function tag() external pure returns (bytes32) {
        return 0xf4ff00f2f5f4ff00f2f5f4ff00f2f5f4ff00f2f5f4ff00f2f5f4ff00f2f5f4ff;
    }
}
