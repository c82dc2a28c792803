# Writes the recorded exchanges replayed by agent/llm's tests (responses in each
# provider's documented format). Kept for reference; the fixtures are committed.
import json, os
root = os.path.dirname(os.path.abspath(__file__))

scene = {
  "version": 1, "title": "Hello ball", "duration": 4, "fps": 30, "style": "playful",
  "background": {"colors": ["#8ec5ff", "#e0c3fc"], "angle": 135, "drift": 40},
  "elements": [
    {"id": "ball", "type": "circle", "x": 0, "y": 0.38, "size": 0.12, "color": "#e53935", "shadow": True,
     "motions": [{"type": "bounce", "start": 0, "end": 2.5, "amp": 0.6, "count": 3, "decay": 0.8, "squash": 1}],
     "tracks": {"x": [{"t": 0, "v": -0.6}, {"t": 2.5, "v": 0.6, "ease": "linear"}]}},
    {"id": "title", "type": "text", "text": "Hello", "y": -0.3, "size": 0.13, "color": "#1f1147", "start": 2, "reveal": "pop",
     "tracks": {"progress": [{"t": 2, "v": 0}, {"t": 3, "v": 1}]}}
  ]
}
bad_scene = json.loads(json.dumps(scene)); bad_scene["elements"][0]["colour"] = "red"
codegen_ok = json.dumps({"scene": scene, "summary": "A red ball bounces across, then 'Hello' pops in."})
boat_scene = {
  "version": 1, "title": "Sailboat", "duration": 4, "fps": 30, "style": "smooth",
  "background": {"colors": ["#bde3ff", "#f3f9ff"], "angle": 160},
  "elements": [
    {"id": "sea", "type": "wave", "variant": "fill", "y": 0.45, "size": 0.09, "color": "#1e88e5",
     "tracks": {"progress": [{"t": 0, "v": 0}, {"t": 1, "v": 1}]}},
    {"id": "boat", "type": "asset", "asset": "fluent:sailboat", "x": 0, "y": 0.1, "size": 0.2,
     "motions": [{"type": "float", "start": 0, "end": 4, "amp": 0.03, "count": 2}]}
  ]
}
codegen_boat = json.dumps({"scene": boat_scene, "summary": "A sailboat bobs on the waves."})
codegen_bad = "```json\n" + json.dumps({"scene": bad_scene, "summary": "ball"}) + "\n```"

def anth(i, parts, stop):
    content = []
    for p in parts:
        if isinstance(p, str):
            content.append({"type": "text", "text": p})
        else:
            content.append({"type": "tool_use", "id": "toolu_%02d_%s" % (i, p[0]), "name": p[0], "input": p[1]})
    return {"id": "msg_%02d" % i, "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
            "content": content, "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 1500 + 100 * i, "output_tokens": 120}}

def oai(i, parts, stop):
    text = "".join(p for p in parts if isinstance(p, str)) or None
    calls = [{"id": "call_%02d_%s" % (i, p[0]), "type": "function",
              "function": {"name": p[0], "arguments": json.dumps(p[1])}} for p in parts if not isinstance(p, str)]
    msg = {"role": "assistant", "content": text, "refusal": None}
    if calls:
        msg["tool_calls"] = calls
    return {"id": "chatcmpl-%02d" % i, "object": "chat.completion", "created": 1763800000 + i, "model": "gpt-4.1",
            "choices": [{"index": 0, "message": msg, "finish_reason": {"tool_use": "tool_calls", "end_turn": "stop"}[stop], "logprobs": None}],
            "usage": {"prompt_tokens": 1500 + 100 * i, "completion_tokens": 120, "total_tokens": 1620 + 100 * i}}

scenarios = {
  "generate": [
    (["I'll start with the setup todo.", ("update_todo", {"todo_id": "setup", "status": "active"}), ("set_thinking", {"message": "Writing the scene"})], "tool_use"),
    ([("generate_code", {"task": "create", "description": "A red ball (#e53935) bounces 3 times across the frame from x=-0.6 to 0.6 during 0-2.5s with squash; the text 'Hello' pops in at 2s. 4 seconds, playful."})], "tool_use"),
    ([codegen_ok], "end_turn"),
    ([("update_todo", {"todo_id": "setup", "status": "done"}), ("render_preview", {})], "tool_use"),
    ([("finish", {"summary": "A red ball bounces across the screen, then 'Hello' pops in."})], "tool_use"),
  ],
  "selfcorrect": [
    ([("generate_code", {"task": "create", "description": "A red ball bouncing, then 'Hello'."})], "tool_use"),
    ([codegen_bad], "end_turn"),
    (["The code generator failed; finishing anyway.", ("finish", {"summary": "done"})], "tool_use"),
    ([("generate_code", {"task": "create", "description": "A red ball bouncing, then 'Hello'. Use only schema fields."})], "tool_use"),
    ([codegen_ok], "end_turn"),
    ([("finish", {"summary": "Fixed: the scene now renders."})], "tool_use"),
  ],
  "assets": [
    ([("search_assets", {"query": "sailboat"})], "tool_use"),
    ([("generate_code", {"task": "create", "description": "A sailboat (asset element fluent:sailboat) bobs gently on a blue wave fill for 4 seconds."})], "tool_use"),
    ([codegen_boat], "end_turn"),
    ([("render_preview", {})], "tool_use"),
    ([("finish", {"summary": "A sailboat bobs on the waves."})], "tool_use"),
  ],
  "exhaust": [
    ([("finish", {"summary": "done"})], "tool_use"),
  ],
  "plan": [
    ([("submit_plan", {"title": "Bouncing ball", "duration_s": 5, "scenes": [
        {"name": "Intro", "start_s": 0, "end_s": 1, "description": "Ball drops in", "entry": "drop", "hold": "settle", "exit": "hop", "easing": "easeOutBack"},
        {"name": "Bounce", "start_s": 1, "end_s": 5, "description": "Ball bounces", "entry": "hop", "hold": "bounce", "exit": "settle", "easing": "easeOutBack"}]})], "tool_use"),
    ([("submit_plan", {"title": "Bouncing ball", "duration_s": 5, "scenes": [
        {"name": "Intro", "start_s": 0, "end_s": 1.5, "description": "The red ball drops in from the top", "entry": "drop with easeOutBack", "hold": "settle", "exit": "hop", "easing": "easeOutBack"},
        {"name": "Bounce", "start_s": 1.5, "end_s": 3.5, "description": "Three bounces with squash and stretch", "entry": "hop", "hold": "bounces", "exit": "slows", "easing": "easeOutElastic"},
        {"name": "Outro", "start_s": 3.5, "end_s": 5, "description": "The ball settles and the camera eases in", "entry": "settle", "hold": "breathe", "exit": "hold the last frame", "easing": "easeInBack"}]})], "tool_use"),
  ],
  "revise": [
    ([("replace", {"path": "scene.json", "old_string": "\"color\": \"#e53935\"", "new_string": "\"color\": \"#1e88e5\""})], "tool_use"),
    ([("generate_code", {"task": "modify_existing", "description": "Make the ball blue (#1e88e5); change nothing else.", "files": ["scene.json"]})], "tool_use"),
    ([json.dumps({"scene": dict(scene, elements=[dict(scene["elements"][0], color="#1e88e5"), scene["elements"][1]]), "summary": "The ball is blue now."})], "end_turn"),
    ([("finish", {"summary": "The ball is blue now."})], "tool_use"),
  ],
}
for prov, fn in (("anthropic", anth), ("openai", oai)):
    for name, steps in scenarios.items():
        d = os.path.join(root, prov, name)
        os.makedirs(d, exist_ok=True)
        for i, (parts, stop) in enumerate(steps, 1):
            with open(os.path.join(d, "%02d.json" % i), "w") as f:
                json.dump(fn(i, parts, stop), f, indent=2)
                f.write("\n")
