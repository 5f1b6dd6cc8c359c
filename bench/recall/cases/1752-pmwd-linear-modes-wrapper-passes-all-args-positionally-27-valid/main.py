from cmass_lite.nbody.pmwd import configure_pmwd, run_density
from pmwd_lite import white_noise

if __name__ == "__main__":
    pmconf, pmcosmo = configure_pmwd(L=100.0, N=8)
    wn = white_noise(0, pmconf)
    try:
        ic = run_density(wn, pmconf, pmcosmo)
        print("ic:", ic.shape, ic.dtype)
    except ValueError as e:
        print("ValueError:", e)
