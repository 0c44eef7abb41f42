extension String {
    /// This text with the password of a URL in it (`scheme://user:password@host…`)
    /// replaced by `***`, so that a store's location can appear in messages
    /// and logs.
    package var withPasswordRedacted: String {
        guard let schemeEnd = range(of: "://") else { return self }
        let rest = self[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@"),
              let colon = rest[..<at].firstIndex(of: ":")
        else { return self }
        return String(self[..<rest.index(after: colon)]) + "***" + String(self[at...])
    }
}
