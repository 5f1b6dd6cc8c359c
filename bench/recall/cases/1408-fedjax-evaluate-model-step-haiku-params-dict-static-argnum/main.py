import haiku as hk
import jax
import numpy as np

from fedjax_lite.experimental import metrics
from fedjax_lite.experimental import model as model_lib


def forward(batch):
  return hk.Linear(2)(batch['x'])


def train_loss(batch, preds):
  return -jax.nn.log_softmax(preds)[np.arange(len(batch['y'])), batch['y']]


if __name__ == '__main__':
  sample_batch = {'x': np.ones((3, 4), np.float32), 'y': np.array([1, 0, 1])}
  model = model_lib.create_model_from_haiku(
      hk.transform(forward), sample_batch, train_loss,
      eval_metrics={'accuracy': metrics.Accuracy()})
  params = model.init(jax.random.PRNGKey(0))
  batches = [sample_batch, sample_batch]
  try:
    print('result:', model_lib.evaluate_model(model, params, batches))
  except Exception as e:
    print(f'{type(e).__name__}: {str(e).splitlines()[0][:90]}')
