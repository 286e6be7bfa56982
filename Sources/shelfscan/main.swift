import ShelfScanCLI

/// Inside an async function the async `main()` wins overload resolution; in top-level code the sync one
/// does, and it refuses to run an async root command.
func runShelfscan() async { await Shelfscan.main() }
await runShelfscan()
