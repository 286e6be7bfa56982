/// Appends IDs we lack, keeping order and skipping empties, for the array-valued external IDs of seed 002.
/// - Returns: true when something was added (so the caller touches the model).
@discardableResult
func appendUnique(_ ids: [String], to list: inout [String]) -> Bool {
    var changed = false
    for id in ids where !id.isEmpty && !list.contains(id) {
        list.append(id)
        changed = true
    }
    return changed
}

/// Fills a single-valued legacy ID only when ours is missing.
@discardableResult
func fillMissing(_ mine: inout String?, from theirs: String?) -> Bool {
    guard (mine ?? "").isEmpty, let theirs, !theirs.isEmpty else { return false }
    mine = theirs
    return true
}
