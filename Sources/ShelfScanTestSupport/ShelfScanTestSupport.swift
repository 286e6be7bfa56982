// ShelfScanTestSupport: see Package.swift for this target's one job.
