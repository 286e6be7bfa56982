print("bench-review: not built yet")
