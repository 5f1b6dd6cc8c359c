import numpy as np

from diffmah_lite.individual_halo_assembly import calc_halo_history

if __name__ == "__main__":
    tarr = np.linspace(0.5, 13.8, 5)
    print(calc_halo_history(tarr, 13.8, 12.0, 0.5, 3.5, 2.5, 1.0))
