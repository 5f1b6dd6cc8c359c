from functions.colabdesign_utils import binder_hallucination

if __name__ == "__main__":
    traj = binder_hallucination("PDL1_l80_s1", "PDL1.pdb", "A", "56", 80, 1)
    print(traj["design_name"], traj["seq"].shape)
