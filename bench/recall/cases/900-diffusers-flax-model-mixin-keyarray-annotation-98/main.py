from diffusers_lite import FlaxModelMixin


if __name__ == "__main__":
    print(FlaxModelMixin.__name__)
