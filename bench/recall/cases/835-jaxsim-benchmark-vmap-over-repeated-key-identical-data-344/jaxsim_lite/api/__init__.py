from jaxsim_lite.api import data, model
