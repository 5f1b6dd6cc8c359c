from jax.tree_util import register_pytree_node_class


@register_pytree_node_class
class SimpleClass:
  def __init__(self, x, y):
    self.x = x
    self.y = y

  def tree_flatten(self):
      children = (self.y, )
      aux_data = (self.x,) # x has to be auxiliary to raise this error
      return (children, aux_data,)

  @classmethod
  def tree_unflatten(cls, aux_data, children):
        x, = children
        y, = aux_data
        return cls(x, y)
