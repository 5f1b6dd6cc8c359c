import jax
import jax.numpy as jnp
from functools import partial

@partial(jax.profiler.annotate_function, name="body function")
def body_func(i, val):
	with jax.profiler.StepTraceAnnotation("body function step", step_num=i):
		val *= (i+1)
		return val


def factorial(n):
	output = jax.lax.fori_loop(0, n, body_func, 1)
	print(f'{n}!={output}')
	return output

if __name__ == "__main__":
	steps = []
	_Annotation = jax.profiler.StepTraceAnnotation

	class CountingAnnotation(_Annotation):
		def __init__(self, name, **kwargs):
			steps.append(kwargs.get("step_num"))
			super().__init__(name, **kwargs)

	jax.profiler.StepTraceAnnotation = CountingAnnotation
	factorial(10)
	print("step annotations entered for 10 iterations:", len(steps))
