from impls.agents.gcbc import GCBCAgent
from impls.utils.evaluation import evaluate

if __name__ == "__main__":
    agent = GCBCAgent.create(action_dim=2)
    stats, trajs = evaluate(agent, num_eval_episodes=1, episode_length=3)
    a = trajs[0]["action"]
    print("same action every step:", all(bool((x == a[0]).all()) for x in a[1:]))
