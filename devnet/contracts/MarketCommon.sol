// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The ERC-20 surface the devnet pools and router rely on.
interface IMarketERC20 {
    function balanceOf(address account) external view returns (uint256);
    function decimals() external view returns (uint8);
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// Token moves that also fail on tokens returning `false` instead of reverting.
library MarketSafeTransfer {
    function safeTransfer(address token, address to, uint256 value) internal {
        (bool ok, bytes memory ret) = token.call(abi.encodeCall(IMarketERC20.transfer, (to, value)));
        require(ok && (ret.length == 0 || abi.decode(ret, (bool))), "transfer failed");
    }

    function safeTransferFrom(address token, address from, address to, uint256 value) internal {
        (bool ok, bytes memory ret) = token.call(abi.encodeCall(IMarketERC20.transferFrom, (from, to, value)));
        require(ok && (ret.length == 0 || abi.decode(ret, (bool))), "transferFrom failed");
    }

    function balanceOf(address token, address account) internal view returns (uint256) {
        return IMarketERC20(token).balanceOf(account);
    }
}
