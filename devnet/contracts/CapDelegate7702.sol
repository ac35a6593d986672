// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// EIP-7702 delegate: an EOA that points its code here can batch calls, but only when it calls itself.
contract CapDelegate7702 {
    struct Call {
        address to;
        uint256 value;
        bytes data;
    }

    event Executed(address indexed to, uint256 value, bytes data);

    function execute(Call[] calldata calls) external payable returns (bytes[] memory results) {
        require(msg.sender == address(this), "CapDelegate7702: only the account itself");
        results = new bytes[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            (bool ok, bytes memory result) = calls[i].to.call{value: calls[i].value}(calls[i].data);
            if (!ok) {
                assembly {
                    revert(add(result, 0x20), mload(result))
                }
            }
            results[i] = result;
            emit Executed(calls[i].to, calls[i].value, calls[i].data);
        }
    }

    receive() external payable {}
}
