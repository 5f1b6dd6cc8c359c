from jax import random

_HANDLER_STACK = []


class Messenger(object):
    def __init__(self, fn=None):
        self.fn = fn

    def __enter__(self):
        _HANDLER_STACK.append(self)

    def __exit__(self, *args, **kwargs):
        assert _HANDLER_STACK[-1] is self
        _HANDLER_STACK.pop()

    def process_message(self, msg):
        pass

    def __call__(self, *args, **kwargs):
        with self:
            return self.fn(*args, **kwargs)


class seed(Messenger):
    def __init__(self, fn, rng):
        self.rng = rng
        super(seed, self).__init__(fn)

    def process_message(self, msg):
        if msg['type'] == 'sample':
            msg['kwargs']['random_state'] = self.rng
            self.rng, = random.split(self.rng, 1)


def sample(name, fn, **kwargs):
    msg = {'type': 'sample', 'name': name, 'fn': fn, 'kwargs': dict(kwargs)}
    for handler in reversed(_HANDLER_STACK):
        handler.process_message(msg)
    return msg['fn'](**msg['kwargs'])
