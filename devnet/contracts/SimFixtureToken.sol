// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The trade simulation's fixture tokens: one ERC-20 whose constructor sets the trap it stands for (fees on
/// buys, sells or every transfer to a treasury, sells only for an allowlist, a maximum transaction, a pause,
/// a rebase on every transfer). A buy is a transfer from a registered pool, a sell one to it; the owner (who
/// seeds the pools) is exempt from all of it, as real tokens exempt their deployer.
contract SimFixtureToken {
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    struct Traps {
        uint16 buyFeeBps;
        uint16 sellFeeBps;
        /// On every transfer, buys and sells included.
        uint16 transferFeeBps;
        /// Every transfer multiplies holders' balances (pools excluded) by (10000 + rebaseBps) / 10000.
        uint16 rebaseBps;
        /// Zero: no maximum.
        uint256 maxTxAmount;
        bool sellsRestricted;
    }

    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    address public immutable owner;
    address public immutable treasury;
    uint256 public totalSupply;
    bool public paused;
    uint256 public rebaseIndex = 1e18;
    Traps public traps;
    mapping(address => bool) public isPool;
    mapping(address => bool) public sellAllowed;
    mapping(address => mapping(address => uint256)) public allowance;
    /// Holders' shares of the rebase index; pools' balances as they are.
    mapping(address => uint256) private stored;

    constructor(string memory name_, string memory symbol_, address treasury_, Traps memory traps_, uint256 supply) {
        name = name_;
        symbol = symbol_;
        owner = msg.sender;
        treasury = treasury_;
        traps = traps_;
        totalSupply = supply;
        stored[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    modifier onlyOwner() {
        require(msg.sender == owner, "not owner");
        _;
    }

    function setPool(address pool) external onlyOwner {
        uint256 balance = balanceOf(pool);
        isPool[pool] = true;
        stored[pool] = balance;
    }

    function setSellAllowed(address account, bool allowed) external onlyOwner {
        sellAllowed[account] = allowed;
    }

    function setPaused(bool paused_) external onlyOwner {
        paused = paused_;
    }

    function balanceOf(address account) public view returns (uint256) {
        return isPool[account] ? stored[account] : stored[account] * rebaseIndex / 1e18;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        if (allowed != type(uint256).max) {
            require(allowed >= value, "insufficient allowance");
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    function _transfer(address from, address to, uint256 value) private {
        require(!paused, "paused");
        Traps memory t = traps;
        uint256 feeBps;
        if (from != owner && to != owner) {
            if (t.maxTxAmount != 0) require(value <= t.maxTxAmount, "max transaction exceeded");
            if (isPool[to]) require(!t.sellsRestricted || sellAllowed[from], "sells restricted");
            feeBps = t.transferFeeBps + (isPool[from] ? t.buyFeeBps : isPool[to] ? t.sellFeeBps : 0);
        }
        uint256 fee = value * feeBps / 10_000;
        _debit(from, value);
        _credit(to, value - fee);
        emit Transfer(from, to, value - fee);
        if (fee > 0) {
            _credit(treasury, fee);
            emit Transfer(from, treasury, fee);
        }
        if (t.rebaseBps > 0) rebaseIndex = rebaseIndex * (10_000 + t.rebaseBps) / 10_000;
    }

    function _debit(address from, uint256 value) private {
        uint256 amount = isPool[from] ? value : value * 1e18 / rebaseIndex;
        require(stored[from] >= amount, "insufficient balance");
        stored[from] -= amount;
    }

    function _credit(address to, uint256 value) private {
        stored[to] += isPool[to] ? value : value * 1e18 / rebaseIndex;
    }
}
