"""The Space's widget: this folder's module in evaluate's Gradio widget."""

from pathlib import Path

import evaluate
from evaluate.utils import launch_gradio_widget

launch_gradio_widget(evaluate.load(str(Path(__file__).resolve().parent)))
