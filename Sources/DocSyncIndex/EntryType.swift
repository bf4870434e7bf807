import Foundation

/// One vocabulary for entry types. Docsets name the same kind of entry in many ways: Apple's Core Data docsets use
/// short codes (`clm`, `instm`, `func`, `tdef`), Doxygen-generated Dash docsets use section titles ("Public Member
/// Functions", "Data Fields"). Readers (Zeal, Dash) fold about a hundred of these aliases into Dash's type names;
/// `EntryType.normalise` applies the same mapping, and passes any other name through unchanged.
package enum EntryType {
    /// The normalised name for `raw` (trimmed); `raw` itself when it is not a known alias.
    package static func normalise(_ raw: String) -> String {
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        return aliases[trimmed] ?? trimmed
    }

    /// Normalised type → the aliases that fold into it (Dash's documented entry types and Apple's token codes).
    static let groups: [(type: String, aliases: [String])] = [
        (
            "Attribute",
            [
                "Package Attributes", "Private Attributes", "Protected Attributes", "Public Attributes",
                "Static Package Attributes", "Static Private Attributes", "Static Protected Attributes",
                "Static Public Attributes", "XML Attributes",
            ]
        ),
        ("Binding", ["binding"]),
        ("Category", ["cat", "Groups", "Pages"]),
        ("Class", ["cl", "specialization", "tmplt"]),
        (
            "Constant",
            [
                "data", "econst", "enumdata", "enumelt", "clconst", "structdata", "writerid", "Notifications",
            ]
        ),
        ("Constructor", ["structctr", "Public Constructors"]),
        ("Enumeration", ["enum", "Enum", "Enumerations"]),
        ("Event", ["event", "Public Events", "Inherited Events", "Private Events"]),
        ("Field", ["Data Fields"]),
        (
            "Function",
            [
                "dcop", "func", "ffunc", "signal", "slot", "grammar", "Function Prototypes", "Functions/Subroutines",
                "Members", "Package Functions", "Private Member Functions", "Private Slots",
                "Protected Member Functions",
                "Protected Slots", "Public Member Functions", "Public Slots", "Signals", "Static Package Functions",
                "Static Private Member Functions", "Static Protected Member Functions",
                "Static Public Member Functions",
            ]
        ),
        ("Guide", ["doc"]),
        ("Namespace", ["ns"]),
        ("Macro", ["macro"]),
        (
            "Method",
            [
                "clm", "enumcm", "enumctr", "enumm", "intfctr", "intfcm", "intfm", "intfsub", "instsub", "instctr",
                "instm", "structcm", "structm", "structsub", "Class Methods", "Inherited Methods", "Instance Methods",
                "Private Methods", "Protected Methods", "Public Methods",
            ]
        ),
        ("Operator", ["intfopfunc", "opfunc"]),
        (
            "Property",
            [
                "enump", "intfdata", "intfp", "instp", "structp", "Inherited Properties", "Private Properties",
                "Protected Properties", "Public Properties",
            ]
        ),
        ("Protocol", ["intf"]),
        ("Structure", ["_Struct", "_Structs", "struct", "Control Structure", "Data Structures", "Struct"]),
        (
            "Type",
            [
                "tag", "tdef", "Data Types", "Package Types", "Private Types", "Protected Types", "Public Types",
                "Typedefs",
            ]
        ),
        ("Variable", ["var"]),
    ]

    static let aliases: [String: String] = {
        var table: [String: String] = [:]
        for group in groups {
            for alias in group.aliases { table[alias] = group.type }
        }
        return table
    }()
}
