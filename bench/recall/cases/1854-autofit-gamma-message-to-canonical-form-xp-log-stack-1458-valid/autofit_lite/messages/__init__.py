from autofit_lite.messages.gamma import GammaMessage
