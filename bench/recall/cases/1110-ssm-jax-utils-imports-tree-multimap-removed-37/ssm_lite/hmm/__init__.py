from ssm_lite.hmm.models import GaussianHMM
