// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// EIP-1167 minimal proxies: the exact 45-byte form, a shorter PUSH-n form, and Solady-style clones with
// immutable arguments appended to the runtime.

contract CapCloneFactory {
    event Cloned(address indexed implementation, address instance);

    /// The exact EIP-1167 runtime: 0x363d3d373d3d3d363d73 <impl> 5af43d82803e903d91602b57fd5bf3.
    function clone(address implementation) external returns (address) {
        return _deploy(implementation, _runtime(implementation, ""));
    }

    /// The EIP-1167 runtime followed by `args`, which the implementation reads from its own code.
    function cloneWithImmutableArgs(address implementation, bytes calldata args) external returns (address) {
        return _deploy(implementation, _runtime(implementation, args));
    }

    /// EIP-1167 with the address pushed by a PUSH-n as short as the implementation address allows
    /// (leading zero bytes dropped); the JUMPDEST offset moves with it.
    function cloneShortPush(address implementation) external returns (address) {
        bytes20 raw = bytes20(implementation);
        uint256 width = 20;
        while (width > 0 && raw[20 - width] == 0) width--;
        require(width > 0 && width < 20, "CapCloneFactory: no leading zero bytes");
        bytes memory pushed = new bytes(width);
        for (uint256 i = 0; i < width; i++) {
            pushed[i] = raw[20 - width + i];
        }
        bytes memory runtime = abi.encodePacked(
            hex"363d3d373d3d3d363d",
            bytes1(uint8(0x5f + width)),
            pushed,
            hex"5af43d82803e903d9160",
            bytes1(uint8(23 + width)),
            hex"57fd5bf3"
        );
        return _deploy(implementation, runtime);
    }

    function _runtime(address implementation, bytes memory args) private pure returns (bytes memory) {
        return abi.encodePacked(
            hex"363d3d373d3d3d363d73", implementation, hex"5af43d82803e903d91602b57fd5bf3", args
        );
    }

    /// Creation code: PUSH2 len, DUP1, PUSH1 10, RETURNDATASIZE, CODECOPY, RETURNDATASIZE, RETURN, then the runtime.
    function _deploy(address implementation, bytes memory runtime) private returns (address instance) {
        bytes memory init = abi.encodePacked(hex"61", uint16(runtime.length), hex"80600a3d393df3", runtime);
        assembly {
            instance := create(0, add(init, 0x20), mload(init))
        }
        require(instance != address(0), "CapCloneFactory: create failed");
        emit Cloned(implementation, instance);
    }
}

/// What the clones delegate to: an owned record that can also read the immutable args of its clone.
/// No constructor and no immutables, so its runtime can be placed at any address as is.
contract CapCloneImplementation {
    /// Length of the EIP-1167 runtime that precedes the appended args.
    uint256 private constant CLONE_CODE_SIZE = 45;

    address public owner;

    function initialize(address owner_) external {
        require(owner == address(0), "CapCloneImplementation: initialized");
        owner = owner_;
    }

    function immutableArgs() external view returns (bytes memory args) {
        uint256 size = address(this).code.length;
        if (size <= CLONE_CODE_SIZE) return args;
        args = new bytes(size - CLONE_CODE_SIZE);
        assembly {
            extcodecopy(address(), add(args, 0x20), CLONE_CODE_SIZE, mload(args))
        }
    }
}
