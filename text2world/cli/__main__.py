from text2world.cli.main import app

app()
