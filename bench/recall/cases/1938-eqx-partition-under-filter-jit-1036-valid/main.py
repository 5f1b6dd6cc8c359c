from mwe_lite import partition

params = ((1., 2.), 3.)
params_mask = ((True, False), False)

if __name__ == "__main__":
    try:
        dynamic, static = partition(params, params_mask)
        print("dynamic:", dynamic)
    except ValueError as e:
        print(f"ValueError: {e}")
