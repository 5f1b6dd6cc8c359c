import numpy as np

import trax_lite.layers as tl

if __name__ == '__main__':
  # core_test.py's test_negative_inputs_clip_to_zero and
  # test_large_inputs_clip_to_upper_bound
  layer = tl.Embedding(10, 3)
  _, _ = layer.init(None)
  y = layer(np.array([0, 2, 3, -2, -3]))
  neg_clipped = y[0].tolist() == y[3].tolist() == y[4].tolist()
  y = layer(np.array([9, 10, 11]))
  large_clipped = y[0].tolist() == y[1].tolist() == y[2].tolist()
  print('negative ids clipped:', neg_clipped)
  print('large ids clipped:', large_clipped, y[1])
