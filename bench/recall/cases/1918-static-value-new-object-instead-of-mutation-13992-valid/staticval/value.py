class StaticValue:
  def __init__(self, val):
    self.val = val

  def __hash__(self):
    return hash(self.val)

  def __eq__(self, other):
    return isinstance(other, StaticValue) and self.val == other.val
