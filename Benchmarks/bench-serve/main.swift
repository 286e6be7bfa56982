print("bench-serve")
