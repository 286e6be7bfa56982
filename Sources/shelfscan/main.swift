import ShelfScanCLI

await Shelfscan.main()
