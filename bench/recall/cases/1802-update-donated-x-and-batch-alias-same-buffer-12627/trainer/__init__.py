from trainer.step import update

__all__ = ["update"]
