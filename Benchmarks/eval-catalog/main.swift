print("eval-catalog: not built yet")
