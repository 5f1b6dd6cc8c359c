import jax
import jax.numpy as jnp
import scipy as scipy
import scipy.optimize
from jax import jit
from functools import partial


class Box:
    def __init__(self, name, reservoir_content, production_coefficient=0.0):
        self._name = name
        self.reservoir_content = reservoir_content
        self.production_coefficient = production_coefficient

    def get_name(self):
        return self._name


class CarbonBoxModel:
    def __init__(self, nodes, fluxes, decay_rate=1.0 / 8267.0):
        self._nodes = dict(enumerate(nodes))
        n = len(nodes)
        self._reservoir_content = jnp.array([[node.reservoir_content for node in nodes]])
        self._production_coefficients = jnp.array([node.production_coefficient for node in nodes])
        self._production_coefficients /= jnp.sum(self._production_coefficients)
        self._corrected_fluxes = jnp.array(fluxes)
        self._decay_matrix = jnp.diag(jnp.array([decay_rate] * n))
        c_14_fluxes = self._corrected_fluxes / jnp.transpose(self._reservoir_content)
        new_c_14_fluxes = jnp.diag(jnp.sum(c_14_fluxes, axis=1))
        self._matrix = jnp.transpose(c_14_fluxes) - new_c_14_fluxes - self._decay_matrix

    def _convert_production_rate(self, production_rate):
        return production_rate * 14.003242 / 6.022 * 5.11 * 31536. / 1.e5

    def _equilibrate_brehm(self, production_rate):
        production_rate = self._convert_production_rate(production_rate)
        solution = jnp.linalg.solve(self._matrix, -1 * self._production_coefficients * production_rate)
        return solution

    def _equilibrate_guttler(self, target_C_14):
        troposphere_index = None
        for index, node in self._nodes.items():
            if node.get_name() == 'Troposphere':
                troposphere_index = index
                break
        if troposphere_index is None:
            raise ValueError('there is currently no Troposphere node to equilibrate!')

        @jit
        def objective_function(production_rate):
            """ Function which calculates the difference between the current tropospheric C14 content and the target
            tropospheric C14 content.
            """
            equilibrium = self._equilibrate_brehm(production_rate)
            return jnp.sum((equilibrium[troposphere_index] - target_C_14) ** 2)

        grad_obj = jax.jit(jax.grad(objective_function))
        final_production_rate = scipy.optimize.minimize(objective_function, jnp.array([6.]), method='BFGS',
                                                        jac=grad_obj)
        return final_production_rate.x[0]

    def equilibrate(self, target_C_14=None, production_rate=None):
        if target_C_14 is not None:
            return self._equilibrate_guttler(target_C_14)

        elif production_rate is not None:
            return self._equilibrate_brehm(production_rate)

        else:
            raise ValueError("Must give either target C-14 or production rate.")

    @partial(jit, static_argnums=(0, 2, 3, 6, 7))
    def run(self, time_out, oversample, production, y0=None, args=(), target_C_14=None, steady_state_production=None):
        """ For the given production function, this calculates the C14 content of all the boxes within the carbon box
        model at the specified time values (reduced: the steady state and one explicit step per sample).
        """
        time_out = jnp.array(time_out)
        time_values = jnp.linspace(jnp.min(time_out) - 1, jnp.max(time_out) + 1, (time_out.shape[0] + 1) * oversample)
        solution = None
        if y0 is not None:
            y_initial = jnp.array(y0)
        else:
            if steady_state_production is not None:
                solution = self.equilibrate(production_rate=steady_state_production)

            elif target_C_14 is not None:
                solution = self.equilibrate(production_rate=self.equilibrate(target_C_14=target_C_14))
            else:
                ValueError("Must give either target C-14 or production rate.")
            y_initial = jnp.array(solution)

        def step(y, t):
            ans = jnp.matmul(self._matrix, y)
            production_term = self._production_coefficients * self._convert_production_rate(production(t, *args))
            y = y + (ans + production_term) * (time_values[1] - time_values[0])
            return y, y

        _, states = jax.lax.scan(step, y_initial, time_values)
        return states, solution
