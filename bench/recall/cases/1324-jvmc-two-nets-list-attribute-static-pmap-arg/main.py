from jVMC_lite.util.util import init_net

if __name__ == "__main__":
    descr = {
        "net1": {"parameters": {"numHidden": 2}},
        "net2": {"parameters": {"numHidden": 3}},
        "batch_size": 4,
    }
    try:
        psi = init_net(descr, (4,))
        print("two-net state evaluated")
    except (TypeError, ValueError) as e:
        print(f"{type(e).__name__}: {str(e).splitlines()[0][:70]}")
