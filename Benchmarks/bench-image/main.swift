print("bench-image: not built yet")
