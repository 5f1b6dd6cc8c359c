from numpyro_lite.examples import minipyro

if __name__ == "__main__":
    minipyro.main(num_steps=20)
