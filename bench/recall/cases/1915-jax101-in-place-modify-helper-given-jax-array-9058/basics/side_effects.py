def in_place_modify(x):
  x[0] = 123
  return None
