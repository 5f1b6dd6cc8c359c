from staticval import StaticValue, add

if __name__ == "__main__":
  v = StaticValue(100)
  print(add(v, 1))
  # 101

  v.val = 0
  out = add(v, 1)
  print(out)
  print("stale:", int(out) == 101)
