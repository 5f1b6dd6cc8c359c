from .environment import Environment, Timestep, StepType
