import jax

from pkg.game import Game


@jax.jit
def update(x):
    game = Game(x)
    game.set_action(x * 2)
    return game.total()
