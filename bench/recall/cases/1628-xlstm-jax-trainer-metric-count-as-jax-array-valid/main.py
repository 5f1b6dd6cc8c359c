import jax.numpy as jnp

from xlstm_jax_lite.trainer.base.trainer import TrainerModule

if __name__ == "__main__":
    batch = {"x": jnp.ones((4, 3)), "y": jnp.ones(4)}
    trainer = TrainerModule(exmp_batch=batch)
    metrics = trainer.train_model([batch] * 4)
    print("loss count:", int(metrics["loss"]["mean"]["count"]))
