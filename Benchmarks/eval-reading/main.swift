print("eval-reading: not built yet")
