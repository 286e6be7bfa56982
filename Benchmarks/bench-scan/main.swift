print("bench-scan: not built yet")
