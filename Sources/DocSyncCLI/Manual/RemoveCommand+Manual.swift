// The reference of `docsync remove NAME` (its man page: generate-manual reads the discussion).
extension RemoveCommand {
    static let manual = #"""
        Removes `<root>/NAME.docset` atomically; readers holding the old version keep it for the grace period.
        """#
}
