print("eval-detection: not built yet")
