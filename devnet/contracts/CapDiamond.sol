// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

// An EIP-2535 Diamond with the full loupe and six facets, for facet resolution by the capability service.

interface ICapDiamondCut {
    enum FacetCutAction {
        Add,
        Replace,
        Remove
    }

    struct FacetCut {
        address facetAddress;
        FacetCutAction action;
        bytes4[] functionSelectors;
    }

    event DiamondCut(FacetCut[] _diamondCut, address _init, bytes _calldata);

    function diamondCut(FacetCut[] calldata _diamondCut, address _init, bytes calldata _calldata) external;
}

interface ICapDiamondLoupe {
    struct Facet {
        address facetAddress;
        bytes4[] functionSelectors;
    }

    function facets() external view returns (Facet[] memory);
    function facetFunctionSelectors(address _facet) external view returns (bytes4[] memory);
    function facetAddresses() external view returns (address[] memory);
    function facetAddress(bytes4 _functionSelector) external view returns (address);
}

interface ICapERC165 {
    function supportsInterface(bytes4 interfaceId) external view returns (bool);
}

interface ICapERC173 {
    event OwnershipTransferred(address indexed previousOwner, address indexed newOwner);

    function owner() external view returns (address);
    function transferOwnership(address newOwner) external;
}

/// The Diamond's own bookkeeping, at a fixed keccak slot so facets never collide with it.
library LibCapDiamond {
    bytes32 internal constant STORAGE_SLOT = keccak256("cap.diamond.storage");

    struct Layout {
        mapping(bytes4 => address) facetOf;
        /// Position of a selector in its facet's selector list.
        mapping(bytes4 => uint256) selectorPosition;
        mapping(address => bytes4[]) selectorsOf;
        address[] facets;
        /// Position of a facet in `facets`.
        mapping(address => uint256) facetPosition;
        mapping(bytes4 => bool) supportedInterfaces;
        address owner;
    }

    function layout() internal pure returns (Layout storage l) {
        bytes32 slot = STORAGE_SLOT;
        assembly {
            l.slot := slot
        }
    }

    function enforceOwner() internal view {
        require(msg.sender == layout().owner, "LibCapDiamond: not owner");
    }

    function cut(ICapDiamondCut.FacetCut[] memory cuts, address init, bytes memory data) internal {
        for (uint256 i = 0; i < cuts.length; i++) {
            ICapDiamondCut.FacetCut memory c = cuts[i];
            if (c.action == ICapDiamondCut.FacetCutAction.Add) {
                addSelectors(c.facetAddress, c.functionSelectors);
            } else if (c.action == ICapDiamondCut.FacetCutAction.Replace) {
                removeSelectors(c.functionSelectors);
                addSelectors(c.facetAddress, c.functionSelectors);
            } else {
                require(c.facetAddress == address(0), "LibCapDiamond: remove with facet");
                removeSelectors(c.functionSelectors);
            }
        }
        emit ICapDiamondCut.DiamondCut(cuts, init, data);
        if (init == address(0)) return;
        (bool ok, bytes memory reason) = init.delegatecall(data);
        if (!ok) {
            assembly {
                revert(add(reason, 0x20), mload(reason))
            }
        }
    }

    function addSelectors(address facet, bytes4[] memory selectors) private {
        require(facet.code.length > 0, "LibCapDiamond: facet has no code");
        Layout storage l = layout();
        if (l.selectorsOf[facet].length == 0) {
            l.facetPosition[facet] = l.facets.length;
            l.facets.push(facet);
        }
        for (uint256 i = 0; i < selectors.length; i++) {
            bytes4 selector = selectors[i];
            require(l.facetOf[selector] == address(0), "LibCapDiamond: selector exists");
            l.facetOf[selector] = facet;
            l.selectorPosition[selector] = l.selectorsOf[facet].length;
            l.selectorsOf[facet].push(selector);
        }
    }

    function removeSelectors(bytes4[] memory selectors) private {
        Layout storage l = layout();
        for (uint256 i = 0; i < selectors.length; i++) {
            bytes4 selector = selectors[i];
            address facet = l.facetOf[selector];
            require(facet != address(0), "LibCapDiamond: selector missing");
            bytes4[] storage list = l.selectorsOf[facet];
            uint256 position = l.selectorPosition[selector];
            bytes4 last = list[list.length - 1];
            list[position] = last;
            l.selectorPosition[last] = position;
            list.pop();
            delete l.facetOf[selector];
            delete l.selectorPosition[selector];
            if (list.length == 0) removeFacet(facet);
        }
    }

    function removeFacet(address facet) private {
        Layout storage l = layout();
        uint256 position = l.facetPosition[facet];
        address last = l.facets[l.facets.length - 1];
        l.facets[position] = last;
        l.facetPosition[last] = position;
        l.facets.pop();
        delete l.facetPosition[facet];
    }
}

/// State shared by the token, pause and fee facets (AppStorage pattern), away from the Diamond's own slot.
library LibCapDiamondApp {
    bytes32 internal constant STORAGE_SLOT = keccak256("cap.diamond.app");

    struct Layout {
        mapping(address => uint256) balances;
        uint256 totalSupply;
        bool paused;
        uint16 feeBps;
        address feeRecipient;
    }

    function layout() internal pure returns (Layout storage l) {
        bytes32 slot = STORAGE_SLOT;
        assembly {
            l.slot := slot
        }
    }
}

contract CapDiamond {
    constructor(address owner, address diamondCutFacet) payable {
        LibCapDiamond.Layout storage l = LibCapDiamond.layout();
        l.owner = owner;
        l.supportedInterfaces[type(ICapERC165).interfaceId] = true;
        l.supportedInterfaces[type(ICapDiamondCut).interfaceId] = true;
        l.supportedInterfaces[type(ICapDiamondLoupe).interfaceId] = true;
        l.supportedInterfaces[type(ICapERC173).interfaceId] = true;

        ICapDiamondCut.FacetCut[] memory cuts = new ICapDiamondCut.FacetCut[](1);
        bytes4[] memory selectors = new bytes4[](1);
        selectors[0] = ICapDiamondCut.diamondCut.selector;
        cuts[0] = ICapDiamondCut.FacetCut(diamondCutFacet, ICapDiamondCut.FacetCutAction.Add, selectors);
        LibCapDiamond.cut(cuts, address(0), "");
    }

    fallback() external payable {
        address facet = LibCapDiamond.layout().facetOf[msg.sig];
        require(facet != address(0), "CapDiamond: function does not exist");
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), facet, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            if iszero(ok) { revert(0, returndatasize()) }
            return(0, returndatasize())
        }
    }

    receive() external payable {}
}

contract DiamondCutFacet is ICapDiamondCut {
    function diamondCut(FacetCut[] calldata _diamondCut, address _init, bytes calldata _calldata) external override {
        LibCapDiamond.enforceOwner();
        LibCapDiamond.cut(_diamondCut, _init, _calldata);
    }
}

contract DiamondLoupeFacet is ICapDiamondLoupe, ICapERC165 {
    function facets() external view override returns (Facet[] memory all) {
        LibCapDiamond.Layout storage l = LibCapDiamond.layout();
        all = new Facet[](l.facets.length);
        for (uint256 i = 0; i < all.length; i++) {
            all[i] = Facet(l.facets[i], l.selectorsOf[l.facets[i]]);
        }
    }

    function facetFunctionSelectors(address _facet) external view override returns (bytes4[] memory) {
        return LibCapDiamond.layout().selectorsOf[_facet];
    }

    function facetAddresses() external view override returns (address[] memory) {
        return LibCapDiamond.layout().facets;
    }

    function facetAddress(bytes4 _functionSelector) external view override returns (address) {
        return LibCapDiamond.layout().facetOf[_functionSelector];
    }

    function supportsInterface(bytes4 interfaceId) external view override returns (bool) {
        return LibCapDiamond.layout().supportedInterfaces[interfaceId];
    }
}

contract DiamondOwnershipFacet is ICapERC173 {
    function owner() external view override returns (address) {
        return LibCapDiamond.layout().owner;
    }

    function transferOwnership(address newOwner) external override {
        LibCapDiamond.enforceOwner();
        LibCapDiamond.Layout storage l = LibCapDiamond.layout();
        emit OwnershipTransferred(l.owner, newOwner);
        l.owner = newOwner;
    }
}

/// A token whose supply the Diamond's owner can grow: the privileged `mint(address,uint256)` sits in a facet.
contract DiamondMintFacet {
    event Transfer(address indexed from, address indexed to, uint256 value);

    function mint(address to, uint256 amount) external {
        LibCapDiamond.enforceOwner();
        LibCapDiamondApp.Layout storage s = LibCapDiamondApp.layout();
        s.totalSupply += amount;
        s.balances[to] += amount;
        emit Transfer(address(0), to, amount);
    }

    function transfer(address to, uint256 amount) external returns (bool) {
        LibCapDiamondApp.Layout storage s = LibCapDiamondApp.layout();
        require(!s.paused, "DiamondMintFacet: paused");
        uint256 fee = (amount * s.feeBps) / 10_000;
        s.balances[msg.sender] -= amount;
        s.balances[to] += amount - fee;
        emit Transfer(msg.sender, to, amount - fee);
        if (fee > 0) {
            s.balances[s.feeRecipient] += fee;
            emit Transfer(msg.sender, s.feeRecipient, fee);
        }
        return true;
    }

    function balanceOf(address account) external view returns (uint256) {
        return LibCapDiamondApp.layout().balances[account];
    }

    function totalSupply() external view returns (uint256) {
        return LibCapDiamondApp.layout().totalSupply;
    }
}

contract DiamondPauseFacet {
    event Paused(address account);
    event Unpaused(address account);

    function pause() external {
        LibCapDiamond.enforceOwner();
        LibCapDiamondApp.layout().paused = true;
        emit Paused(msg.sender);
    }

    function unpause() external {
        LibCapDiamond.enforceOwner();
        LibCapDiamondApp.layout().paused = false;
        emit Unpaused(msg.sender);
    }

    function paused() external view returns (bool) {
        return LibCapDiamondApp.layout().paused;
    }
}

/// The owner can take a cut of every transfer: a privileged fee setter.
contract DiamondFeeFacet {
    event FeeChanged(uint16 feeBps, address feeRecipient);

    function setFee(uint16 feeBps, address feeRecipient) external {
        LibCapDiamond.enforceOwner();
        require(feeBps <= 10_000, "DiamondFeeFacet: fee above 100%");
        LibCapDiamondApp.Layout storage s = LibCapDiamondApp.layout();
        s.feeBps = feeBps;
        s.feeRecipient = feeRecipient;
        emit FeeChanged(feeBps, feeRecipient);
    }

    function feeBps() external view returns (uint16) {
        return LibCapDiamondApp.layout().feeBps;
    }

    function feeRecipient() external view returns (address) {
        return LibCapDiamondApp.layout().feeRecipient;
    }
}
