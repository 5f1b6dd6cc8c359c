from jax import grad


class kernel:
  def __init__(self, nn, data, labels):
    self.nn = nn
    self.data = data
    self.labels = labels

  def opt(self):
    grads=grad(self.nn.loss)(self.nn.param,self.data,self.labels)
    self.param=[(w-self.nn.lr*dw,b-self.nn.lr*db) for (w,b),(dw,db) in zip(self.nn.param,grads)]
    return
