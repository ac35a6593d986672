// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The ERC-20 surface the devnet pools and router rely on.
interface IMarketERC20 {
    function balanceOf(address account) external view returns (uint256);
    function decimals() external view returns (uint8);
    function transfer(address to, uint256 value) external returns (bool);
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// Token moves that also fail on tokens returning `false` instead of reverting, and native ETH where V4 pools hold it.
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

    /// Sends a Uniswap V4 currency: native ETH when `currency` is address(0), else the ERC-20.
    function sendCurrency(address currency, address to, uint256 amount) internal {
        if (currency == address(0)) {
            (bool ok,) = to.call{value: amount}("");
            require(ok, "ETH transfer failed");
        } else {
            safeTransfer(currency, to, amount);
        }
    }

    /// `account`'s balance of a Uniswap V4 currency (address(0): native ETH).
    function currencyBalanceOf(address currency, address account) internal view returns (uint256) {
        return currency == address(0) ? account.balance : balanceOf(currency, account);
    }
}

/// ERC-1167 minimal proxies at CREATE2 addresses, as OpenZeppelin's Clones deploys them for Aerodrome and
/// Slipstream: the init code is the 55 bytes base/poolAddress.ts hashes (erc1167InitCodeHash).
library MarketClones {
    function cloneDeterministic(address implementation, bytes32 salt) internal returns (address instance) {
        bytes memory initCode = abi.encodePacked(
            hex"3d602d80600a3d3981f3363d3d373d3d3d363d73", implementation, hex"5af43d82803e903d91602b57fd5bf3"
        );
        assembly {
            instance := create2(0, add(initCode, 0x20), mload(initCode), salt)
        }
        require(instance != address(0), "clone failed");
    }
}
