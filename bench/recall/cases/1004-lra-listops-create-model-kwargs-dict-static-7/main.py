from lra_lite.listops import train

config = {
    'batch_size': 4,
    'random_seed': 0,
    'model_type': 'transformer',
    'model_kwargs': {},
    'max_length': 32,
    'emb_dim': 16,
}

if __name__ == '__main__':
  try:
    params = train.main(config)
    print('model created')
  except Exception as exc:
    print(type(exc).__name__, exc)
