extension ReadingStatus {
    /// Parses the shelf and status names of Goodreads ("to-read", "currently-reading", "read"), LibraryThing
    /// ("Currently reading", "To read", "Read but unowned") and StoryGraph ("to-read", "did-not-finish", "paused")
    /// exports, plus our own raw values and seed 001's labels ("TBR - To Be Read").
    ///
    /// Goodreads' "to-read" shelf and StoryGraph's "to-read" are treated as `toRead` (a book on the shelf to
    /// read), "want to read" and "wishlist" as `wishlist` (not owned), following seed 002's split.
    /// - Returns: nil for empty or unrecognized text, so an importer can fall back to its default.
    public static func from(string: String?) -> ReadingStatus? {
        guard let string else { return nil }
        let key = TextNormalization.normalize(string).replacingOccurrences(of: " ", with: "")
        guard !key.isEmpty else { return nil }
        if let exact = ReadingStatus.allCases.first(where: { $0.rawValue.lowercased() == key }) { return exact }
        switch key {
        case "wishlist", "wantto", "wanttoread", "want", "wanted", "wishlisted", "wanttobuy":
            return .wishlist
        case "toread", "tbr", "tbrtoberead", "toberead", "owned", "unread", "notread", "notstarted", "planned",
            "planningtoread":
            return .toRead
        case "reading", "currentlyreading", "inprogress", "started", "current", "nowreading":
            return .reading
        case "read", "finished", "completed", "complete", "done", "readbutunowned", "alreadyread", "haveread":
            return .read
        case "onhold", "paused", "hold", "suspended":
            return .onHold
        case "dnf", "didnotfinish", "dnfdidnotfinish", "abandoned", "gaveup", "stopped", "stoppedreading":
            return .dnf
        default:
            return nil
        }
    }
}
