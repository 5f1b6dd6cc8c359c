from galpy_lite.util import backend
from galpy_lite.df.streamdf import streamdf

if __name__ == "__main__":
    sdf = streamdf()
    print("numpy backend ok:", sdf._determine_stream_spreadLB(0.5, 0.2, 10.0, 100.0, 1.0, 2.0).shape)
    backend.force_backend("jax")
    print(sdf._determine_stream_spreadLB(0.5, 0.2, 10.0, 100.0, 1.0, 2.0))
