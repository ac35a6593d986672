// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// An EIP-2535 loupe that answers with as many facets and selectors as it was built with, generated in loops:
// for the capability service's bounds on what a Diamond's answer may make it read and dissect.

interface ICapFanoutLoupe {
    struct Facet {
        address facetAddress;
        bytes4[] functionSelectors;
    }

    function facets() external view returns (Facet[] memory);
    function facetAddresses() external view returns (address[] memory);
    function facetAddress(bytes4 _functionSelector) external view returns (address);
    function supportsInterface(bytes4 interfaceId) external view returns (bool);
}

/// `facets()` has `entries` entries. Entry k lists `selectorsPerEntry` selectors, 0xfa000000 + k * selectorsPerEntry
/// + j. Every tenth entry (k = 9, 19, ...) repeats the facet of an earlier entry; the others are the distinct
/// facets in order: the given real facets first, except the last real one, which is the last distinct facet;
/// addresses derived from this contract's address and the facet's place in between (no code unless placed).
contract CapFanoutDiamond is ICapFanoutLoupe {
    uint32 private constant SELECTOR_BASE = 0xfa000000;
    uint256 private constant REPEAT_EVERY = 10;

    address[] private realFacets;
    uint256 public immutable entries;
    uint256 public immutable selectorsPerEntry;

    constructor(address[] memory real, uint256 entryCount, uint256 selectorsEach) {
        require(entryCount > 0 && selectorsEach > 0, "CapFanoutDiamond: empty");
        realFacets = real;
        entries = entryCount;
        selectorsPerEntry = selectorsEach;
    }

    fallback() external payable {
        address facet = facetAddress(msg.sig);
        require(facet != address(0), "CapFanoutDiamond: function does not exist");
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), facet, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }

    receive() external payable {}

    function facets() external view override returns (Facet[] memory all) {
        all = new Facet[](entries);
        for (uint256 k = 0; k < entries; k++) {
            bytes4[] memory selectors = new bytes4[](selectorsPerEntry);
            for (uint256 j = 0; j < selectorsPerEntry; j++) {
                selectors[j] = bytes4(SELECTOR_BASE + uint32(k * selectorsPerEntry + j));
            }
            all[k] = Facet(facetOfEntry(k), selectors);
        }
    }

    function facetAddresses() external view override returns (address[] memory all) {
        all = new address[](distinctFacets());
        for (uint256 d = 0; d < all.length; d++) {
            all[d] = facetAt(d);
        }
    }

    function facetAddress(bytes4 _functionSelector) public view override returns (address) {
        uint32 value = uint32(_functionSelector);
        if (value < SELECTOR_BASE) return address(0);
        uint256 k = (value - SELECTOR_BASE) / selectorsPerEntry;
        return k < entries ? facetOfEntry(k) : address(0);
    }

    /// ERC-165 itself and IDiamondLoupe (0x48e2b093, the id the standard's loupe has).
    function supportsInterface(bytes4 interfaceId) external pure override returns (bool) {
        return interfaceId == 0x01ffc9a7 || interfaceId == 0x48e2b093;
    }

    function distinctFacets() public view returns (uint256) {
        return entries - entries / REPEAT_EVERY;
    }

    function facetOfEntry(uint256 k) public view returns (address) {
        return (k + 1) % REPEAT_EVERY == 0 ? facetAt(k / REPEAT_EVERY) : facetAt(k - (k + 1) / REPEAT_EVERY);
    }

    function facetAt(uint256 d) internal view returns (address) {
        uint256 real = realFacets.length;
        if (real > 0 && d == distinctFacets() - 1) return realFacets[real - 1];
        if (d + 1 < real) return realFacets[d];
        return address(uint160(uint256(keccak256(abi.encodePacked(address(this), d)))));
    }
}
