"""
"""

# Constants related to SFH integrals
SFR_MIN = 1e-14
T_BIRTH_MIN = 0.001
T_TABLE_MIN = 0.01
N_T_LGSM_INTEGRATION = 100
