import ShelfScanCLI

await Shelfscan.runMain()
